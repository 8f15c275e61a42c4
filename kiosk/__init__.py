"""azar-kiosk: a dice-table referee for the three-dice games of Alfonso X's Libro de los juegos."""

__version__ = "0.1.0"
