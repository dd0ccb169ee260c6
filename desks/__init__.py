"""The referee desks for the board games (Il Ribelle!, L'Automobile del Tempo)."""
