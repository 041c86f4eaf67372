# syntax=docker/dockerfile:1
# Traders of Osaka: the game server, configured by environment variables only (see .env.example
# and README.md). Build: `docker build -t traders-of-osaka .`; with PostgreSQL: `docker compose up`.

# ---- build: a virtualenv with the dependencies and the project installed in editable mode ----
FROM python:3.11-slim AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /app
# Dependencies first, from pyproject.toml alone: this layer is rebuilt only when they change.
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt
# The project itself. Editable, so the code runs from /app next to static/, templates/ and
# migrations/ (found relative to the code) and `osaka` is on the PATH.
COPY alembic.ini ./
COPY engine ./engine
COPY bots ./bots
COPY app ./app
COPY migrations ./migrations
COPY templates ./templates
COPY docs/rules.md ./docs/rules.md
COPY static ./static
RUN pip install --no-deps -e . \
    && python -m compileall -q /app/engine /app/bots /app/app /app/migrations

# ---- runtime: the same virtualenv and /app on a clean slim image, as an unprivileged user ----
FROM python:3.11-slim
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATABASE_URL=sqlite+aiosqlite:////data/osaka.db \
    LOG_LEVEL=info
RUN groupadd --system --gid 10001 osaka \
    && useradd --system --uid 10001 --gid osaka --home-dir /app --no-create-home \
               --shell /usr/sbin/nologin osaka \
    && mkdir /data && chown osaka:osaka /data
COPY --from=build /opt/venv /opt/venv
COPY --from=build /app /app
WORKDIR /app
# Without DATABASE_URL the games live in SQLite on this volume; docker-compose.yml uses PostgreSQL.
VOLUME ["/data"]
USER 10001:10001
EXPOSE 8000
# Ready = the process answers and its database is reachable with the schema at the head
# (python -m app.healthcheck: urllib only, no curl in the image).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-m", "app.healthcheck", "/readyz"]
# `osaka serve` applies the migrations, then serves on $HOST:$PORT. On SIGTERM (docker stop) it
# finishes in-flight actions, tells the clients it is restarting (close code 1012) and exits 0
# within 10 s (docker's default stop timeout).
STOPSIGNAL SIGTERM
CMD ["osaka", "serve"]
