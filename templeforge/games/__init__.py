"""Games' own commands (``templeforge stones solve``), one module per game that has any,
each named by its game's descriptor (``generators.contract.Game.commands``)."""
