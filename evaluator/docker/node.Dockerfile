# The production JavaScript sandbox image: the official node image plus worker.js.
#
# Build context: the evaluator/ directory (docker-compose.yml's node-sandbox-image).
# The bot process holds no node: like the PHP image, containers of this image are
# started as siblings through the Docker socket, and get every other limit (no network,
# read-only root, no capabilities, memory, pids, CPU) from
# evaluator/sandbox/_docker_config.py when the pool starts them. The base is pinned to
# the node major the differential tests run against (20, Debian's nodejs on the test
# machine); when you bump it, pin the digest too and rerun tests/evaluator/js.
# Without Docker Hub, `formula-darts sandbox build --language javascript` builds the
# same image from the host's own node instead.
ARG NODE_IMAGE=node:20-bookworm-slim
FROM ${NODE_IMAGE}

USER 0:0
COPY worker.js /sandbox/worker.js
RUN ["node", "-e", "const fs = require('fs'); fs.chmodSync('/sandbox/worker.js', 0o444); process.exit(process.versions.node.split('.')[0] === '20' ? 0 : 1);"]

ARG WORKER_SHA256=unknown
LABEL formula-darts.sandbox-image="1" \
      formula-darts.source="dockerfile" \
      formula-darts.worker-sha256="${WORKER_SHA256}"

USER 65534:65534
WORKDIR /tmp
CMD ["node", "/sandbox/worker.js"]
