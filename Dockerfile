# The image that cluster/rayjob.yaml runs (Ray head, Ray workers and the job submitter):
# Ray's own image for the Ray and Python versions that requirements.lock pins, plus
# evoplay's pinned dependencies and evoplay itself. From the repository root:
#
#   docker build -t evoplay:0.1.0 .
#
# Ray's image already has ray[default] (dashboard, jobs API, autoscaler), which job
# submission and KubeRay need; requirements.lock pins the same Ray, so pip keeps it.
FROM rayproject/ray:2.60.0-py311-cpu

WORKDIR /home/ray/evoplay

# Dependencies first: this layer is rebuilt only when the lock changes.
COPY --chown=ray:users requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock

# evoplay, and its configs/ (the RayJob's working directory is this folder).
COPY --chown=ray:users pyproject.toml README.md LICENSE ./
COPY --chown=ray:users evoplay ./evoplay
COPY --chown=ray:users configs ./configs
RUN pip install --no-cache-dir --no-deps . \
 && rm -rf build evoplay.egg-info \
 && mkdir -p /home/ray/results

ENV RAY_USAGE_STATS_ENABLED=0
