# Sourced by validate-deploy.sh: the checks of deploy/monitoring (the
# alerting rules, their PrometheusRule, their unit tests, the dashboards).
# Uses its $venv (kubectl, kubernetes-validate, PyYAML) and $k8s_versions,
# and promtool from Debian's `prometheus` package.

# The PrometheusRule for the Operator: alerts.yml's groups under `spec`,
# its comments kept, its opening comment replaced by this header.
prometheus_rule() {
  cat <<'YAML'
# GENERATED from alerts.yml by `deploy/dev/validate-deploy.sh rules`: edit
# alerts.yml, never this file (`validate-deploy.sh check` fails while they
# differ). The same groups, for the Prometheus Operator; its ruleSelector
# must match these labels (add the selector's label in an overlay if needed).
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: wmeter
  labels:
    app.kubernetes.io/name: wmeter
    app.kubernetes.io/component: monitoring
spec:
YAML
  awk 'started || !/^(#|$)/ { started = 1; print (length($0) ? "  " $0 : "") }' "$1/deploy/monitoring/alerts.yml"
}

# What promtool and the schemas cannot say about deploy/monitoring under
# $1; $2 is the kustomization rendered.
monitoring_policy() {
  "$venv/bin/python" - "$1" "$2" <<'PY'
import glob, json, os, re, sys, yaml

root, rendered = sys.argv[1:3]
mon = os.path.join(root, "deploy/monitoring")
problems = []

def anchors(markdown):
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    seen, out = {}, set()
    for line in open(markdown):
        m = re.match(r"#+ (.*)", line)
        if not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out

rules = yaml.safe_load(open(os.path.join(mon, "alerts.yml")))
sections = anchors(os.path.join(root, "docs/operations.md"))
alerts, runbooks = [], {}
for group in rules["groups"]:
    for rule in group["rules"]:
        if "alert" not in rule:
            continue
        name = rule["alert"]
        alerts.append(name)
        if rule.get("labels", {}).get("severity") not in ("critical", "warning", "info"):
            problems.append(f"{name}: labels.severity must be critical, warning or info")
        notes = rule.get("annotations", {})
        for key in ("summary", "description", "runbook_url"):
            if not notes.get(key):
                problems.append(f"{name}: annotations.{key} is missing")
        m = re.fullmatch(r"docs/operations\.md#([\w-]+)", notes.get("runbook_url", ""))
        if not m or m.group(1) not in sections:
            problems.append(f"{name}: runbook_url must be docs/operations.md#<a section of it> (has {notes.get('runbook_url')})")
        elif m.group(1) in runbooks:
            problems.append(f"{name}: shares its runbook section with {runbooks[m.group(1)]}")
        else:
            runbooks[m.group(1)] = name

fired = set()
for path in glob.glob(os.path.join(mon, "tests/*.yml")):
    for test in yaml.safe_load(open(path)).get("tests", []):
        fired.update(t["alertname"] for t in test.get("alert_rule_test", []) if t.get("exp_alerts"))
for name in alerts:
    if name not in fired:
        problems.append(f"{name}: no unit test in deploy/monitoring/tests fires it")

docs = [d for d in yaml.safe_load_all(open(rendered)) if d]
kinds = [d["kind"] for d in docs]
if kinds.count("PrometheusRule") != 1:
    problems.append(f"the kustomization renders {kinds.count('PrometheusRule')} PrometheusRules, not 1")
for d in docs:
    if d["kind"] == "PrometheusRule" and d["spec"] != rules:
        problems.append("the PrometheusRule does not hold alerts.yml's groups")

dashboards = sorted(glob.glob(os.path.join(mon, "dashboards/*.json")))
generated = {f for d in docs if d["kind"] == "ConfigMap" for f in d.get("data", {})}
uids = {}
for path in dashboards:
    name = os.path.basename(path)
    if name not in generated:
        problems.append(f"{name}: no ConfigMap of the kustomization carries it")
    if os.path.getsize(path) > 100_000:
        problems.append(f"{name}: over 100 kB")
    board = json.load(open(path))
    if not board.get("uid") or board["uid"] in uids:
        problems.append(f"{name}: needs a uid of its own")
    uids[board.get("uid")] = name
    if board.get("schemaVersion", 0) < 36:
        problems.append(f"{name}: schemaVersion {board.get('schemaVersion')} is older than Grafana 9")
    variables = board.get("templating", {}).get("list", [])
    if not any(v.get("type") == "datasource" and v.get("name") == "datasource" and v.get("query") == "prometheus"
               for v in variables):
        problems.append(f"{name}: needs the Prometheus datasource variable `datasource`")
    stack = list(board.get("panels", []))
    while stack:
        panel = stack.pop()
        stack.extend(panel.get("panels", []))
        if panel.get("type") == "row":
            continue
        title = panel.get("title", "?")
        if panel.get("datasource", {}).get("uid") != "${datasource}":
            problems.append(f"{name} panel {title!r}: its datasource must be ${{datasource}}")
        targets = panel.get("targets", [])
        if not targets or not all(t.get("expr") and t.get("refId") for t in targets):
            problems.append(f"{name} panel {title!r}: every target needs an expr and a refId")
for p in problems:
    print(f"POLICY {p}")
sys.exit(1 if problems else 0)
PY
}

# deploy/monitoring under $1: promtool's check and unit tests, the
# PrometheusRule against its source, the kustomization, the policy.
check_monitoring() {
  local root=$1 mon=$1/deploy/monitoring rendered generated rc=0 out
  promtool check rules "$mon/alerts.yml" || rc=1
  promtool test rules "$mon"/tests/*.yml || rc=1
  generated=$(mktemp)
  prometheus_rule "$root" >"$generated"
  if ! diff -u "$mon/prometheusrule.yaml" "$generated" >/dev/null; then
    echo "ERROR deploy/monitoring/prometheusrule.yaml is not what alerts.yml generates: run $0 rules"
    rc=1
  fi
  rendered=$(mktemp)
  if ! "$venv/bin/kubectl" kustomize "$mon" >"$rendered" || [ ! -s "$rendered" ]; then
    echo "ERROR kubectl kustomize $mon failed or rendered nothing"
    rm -f "$rendered" "$generated"
    return 1
  fi
  # The PrometheusRule is a custom resource the validator has no schema
  # for: the policy checks it; the ConfigMaps go through the schemas.
  "$venv/bin/python" -c 'import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d["kind"] != "PrometheusRule"]
yaml.safe_dump_all(docs, open(sys.argv[2], "w"))' "$rendered" "$generated"
  local args=(--strict --quiet)
  for v in "${k8s_versions[@]}"; do args+=(-k "$v"); done
  out=$("$venv/bin/kubernetes-validate" "${args[@]}" "$generated" 2>&1) || rc=1
  [ -z "$out" ] || printf '%s\n' "$out"
  if grep -qE '^(WARN|ERROR|FATAL)' <<<"$out"; then rc=1; fi
  monitoring_policy "$root" "$rendered" || rc=1
  rm -f "$rendered" "$generated"
  return $rc
}
