"""L'Automobile del Tempo (the Time Car) for Colt Express: the referee of the Time Car.

Pure Python, no Django. ``state`` holds the train and the figures, ``checker`` answers and
applies every action that touches the Time Car, ``rounds`` runs the reveal, the Event,
the hiding and the end bonus, ``posts`` and ``messages`` say it in Italian and English,
``replay`` plays a recorded game (docs/replay-automobile-del-tempo.md). Rule numbers are
those of shared/rules/automobile-del-tempo.md (ADT-Rn, ADT-Dn).
"""
