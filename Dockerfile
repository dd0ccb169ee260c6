# Production image: web (gunicorn), worker and beat all run from it.

# Build stage: the rules engine's hot modules compiled with mypyc (roles/native.py), the
# pure Python source staying the source of truth; only the extensions leave this stage.
FROM python:3.11-slim AS engine
ENV PYTHONDONTWRITEBYTECODE=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY requirements/build.lock requirements/build.lock
RUN pip install --no-cache-dir --require-hashes -r requirements/build.lock
COPY pyproject.toml ./
COPY roles roles
RUN python roles/native.py build \
    && mkdir /out && find . -name '*.so' -exec cp --parents {} /out \; \
    && cp --parents build/mypyc/sources.blake2b /out

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
RUN useradd --system --create-home tabula
COPY requirements/base.lock requirements/base.lock
RUN pip install --no-cache-dir --require-hashes -r requirements/base.lock
COPY . .
# The compiled engine and its stamp (the sources' digest): a mismatch would run pure.
COPY --from=engine /out/ /app/
RUN python -c "from roles import native; assert all(native.loaded().values()), native.loaded()"
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
