"""``templeforge studio``: a local web page where a designer draws a card and sees it proved.

``server`` is the Starlette application (the token, the paths, the routes), ``worker`` the
process the proofs run in, ``jobs`` what that process computes, ``static`` the page (its
script and style ship in the package: it works offline). Games take part through the
contract's optional ``studio`` member (``generators.contract.Studio``); nothing here names a
game.
"""
