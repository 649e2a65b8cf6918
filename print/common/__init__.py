"""The sheet engine every game prints through: sizes, imposition as data, the PDF writer
(reproducible bytes, embedded fonts, page boxes), colours paired with letters, previews."""
