"""The L'Automobile del Tempo desk (Colt Express)."""
