# Production image: web (gunicorn), worker and beat all run from it.

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
RUN useradd --system --create-home tabula
COPY requirements/base.lock requirements/base.lock
RUN pip install --no-cache-dir --require-hashes -r requirements/base.lock
COPY . .
RUN SECRET_KEY=collectstatic-only DEBUG=false python manage.py collectstatic --noinput \
    && mkdir -p /app/var && chown -R tabula /app/var
USER tabula
EXPOSE 8000
# Three sync workers: a vote is CPU-bound (bench/web.py prints its CPU in gunicorn and in
# PostgreSQL; the database's share is about a sixth since its statements are prepared) with short
# database and Redis waits, so a third worker keeps two cores busy while one waits; more
# workers only add memory (bench/web.py measures this command as written).
CMD ["gunicorn", "gm.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", \
     "--config", "python:gm.gunicorn_conf"]
