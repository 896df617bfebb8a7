# The whole service (API, one worker, the scheduler, embedded Redis) in one container:
#   docker build -t diplomacy-service .
#   docker run -p 8000:8000 -v diplomacy-data:/data diplomacy-service
# Set REDIS_URL (or REDIS_SENTINELS and REDIS_SENTINEL_MASTER) to use an external Redis instead of the
# embedded one. The arguments are the launcher's, so one image serves each role (docs/deployment.md,
# docker-compose.yml):
#   docker run -e REDIS_URL=redis://redis:6379/0 diplomacy-service --role api
#   docker run -e REDIS_URL=redis://redis:6379/0 diplomacy-service --role worker --workers 2
#   docker run -e REDIS_URL=redis://redis:6379/0 diplomacy-service --role scheduler
#   docker run -e REDIS_URL=redis://redis:6379/0 -e SMTP_PORT=2525 -e SMTP_HOST=0.0.0.0 diplomacy-service --role mail
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data

# the maps' PNGs write their names in DejaVu Sans (resvg reads the system's fonts)
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml ./
COPY adjudicator ./adjudicator
COPY maps ./maps
COPY service ./service
COPY workers ./workers
RUN pip install . && mkdir -p /data && useradd --system --home /app app && chown app /data
USER app
VOLUME ["/data"]
EXPOSE 8000
STOPSIGNAL SIGINT
ENTRYPOINT ["python", "-m", "service.launch"]
