"""gunicorn's configuration (``--config python:gm.gunicorn_conf``): access log on stdout,
with the players' link tokens redacted (issue 9, #4)."""

accesslog = "-"
logger_class = "gm.logs.RedactingGunicornLogger"
