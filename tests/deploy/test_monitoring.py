"""The compose `monitoring` profile (docker-compose.yml, deploy/prometheus/, deploy/grafana/;
docs/deploy.md "Metrics") fits the server: Prometheus scrapes /metrics of every app replica with
the token the container writes where its config reads it; the dashboard queries only metrics
the server exports (a real scrape of a real server: tests/app/test_metrics.py's figures) and
the data source Grafana is given; neither service starts without the profile."""
from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
PROM = yaml.safe_load((ROOT / "deploy/prometheus/prometheus.yml").read_text())
DASHBOARD = json.loads((ROOT / "deploy/grafana/dashboards/osaka.json").read_text())
TOKEN = "t" * 32
#: PromQL function and keyword names that look like metric names in an expression.
PROMQL = {"sum", "by", "rate", "increase", "max", "histogram_quantile", "le", "state", "kind", "outcome", "stage",
          "level", "target", "instance"}


def test_prometheus_scrapes_every_replica_with_the_token():
    job = next(j for j in PROM["scrape_configs"] if j["job_name"] == "osaka")
    assert job["metrics_path"] == "/metrics"
    assert job["dns_sd_configs"] == [{"names": ["app"], "type": "A", "port": 8000, "refresh_interval": "15s"}]
    service = COMPOSE["services"]["prometheus"]
    token_file = job["authorization"]["credentials_file"]
    # `$$`: the container's shell reads the variable (compose does not put the token in the command)
    assert f'"$$METRICS_TOKEN" > {token_file} ' in service["entrypoint"][-1]
    assert service["environment"]["METRICS_TOKEN"] == "${METRICS_TOKEN:-}"
    assert "./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro" in service["volumes"]
    assert "--config.file=/etc/prometheus/prometheus.yml" in service["entrypoint"][-1]


def test_the_monitoring_services_start_only_with_the_profile():
    for name in ("prometheus", "grafana"):
        assert COMPOSE["services"][name]["profiles"] == ["monitoring"], name
    for name in ("db", "app", "proxy"):
        assert "profiles" not in COMPOSE["services"][name], name
    grafana = COMPOSE["services"]["grafana"]
    assert grafana["ports"] == ["${GRAFANA_BIND:-127.0.0.1}:${GRAFANA_PORT:-3000}:3000"], "private unless the host says"
    assert "./deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro" in grafana["volumes"]
    source = yaml.safe_load((ROOT / "deploy/grafana/provisioning/datasources/prometheus.yml").read_text())
    assert source["datasources"][0]["uid"] == "prometheus" and source["datasources"][0]["url"] == "http://prometheus:9090"


def test_the_dashboard_queries_what_the_server_exports(server_factory):
    srv = server_factory(METRICS_TOKEN=TOKEN)
    text = httpx.get(srv.base_url + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
    exported = set(re.findall(r"^# TYPE (\w+) (\w+)", text, re.M))
    names = set()
    for name, kind in exported:  # a counter's samples end in _total, a histogram's in _bucket/_sum/_count
        names |= {name.removesuffix("_total") + "_total"} if kind == "counter" else {
            name + s for s in ("_bucket", "_sum", "_count")} if kind == "histogram" else {name}
    assert DASHBOARD["panels"], "a dashboard with panels"
    used = set()
    for panel in DASHBOARD["panels"]:
        assert panel["datasource"]["uid"] == "prometheus", panel["title"]
        for target in panel["targets"]:
            for word in re.findall(r"[a-z_][a-z0-9_]*", re.sub(r"\{[^}]*\}|\"[^\"]*\"|\[[^\]]*\]", "", target["expr"])):
                if word not in PROMQL:
                    used.add(word)
    assert used <= names, used - names
    assert {n.split("_bucket")[0] for n in used if n.startswith("osaka_")} >= {"osaka_rooms", "osaka_sockets"}
    assert len({n for n in used if n.startswith("osaka_")}) >= 9, used
