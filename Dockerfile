# The bot's image (docker-compose.yml builds it from the repository root).
#
# It holds no PHP: formulas run in sibling containers of the sandbox image
# (evaluator/docker/Dockerfile), which the bot starts through the Docker socket
# mounted by docker-compose.yml. Pin the base by digest in production.
ARG PYTHON_IMAGE=python:3.11.13-slim-bookworm
FROM ${PYTHON_IMAGE}

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# Dependencies first, so a code change does not reinstall them.
COPY pyproject.toml README.md ./
RUN mkdir -p rules evaluator bot \
    && touch rules/__init__.py evaluator/__init__.py bot/__init__.py \
    && pip install . \
    && pip uninstall -y formula-darts \
    && rm -rf rules evaluator bot build *.egg-info

COPY sets.yaml ./
COPY rules ./rules
COPY evaluator ./evaluator
COPY bot ./bot
# Editable: the shipped sets.yaml and the worker are found beside the packages.
RUN pip install --no-deps -e . \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin bot \
    && mkdir -p /app/data && chown bot /app/data

USER bot
ENV EVALUATOR=docker
VOLUME ["/app/data"]
CMD ["formula-darts", "run"]
