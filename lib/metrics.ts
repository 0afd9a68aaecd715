/** A few Prometheus series kept in memory; rendered as text exposition format 0.0.4. */
const BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface Metrics {
  request(labels: { plan: string; status: number; code: string }, seconds: number): void;
  cache(status: string): void;
  fetchBytes(bytes: number): void;
  render(gauges: Record<string, number>): string;
}

function labelText(labels: Record<string, string | number>): string {
  const parts = Object.entries(labels).map(([k, v]) =>
    `${k}="${String(v).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`
  );
  return parts.length ? `{${parts.join(",")}}` : "";
}

export function createMetrics(): Metrics {
  const requests = new Map<string, number>();
  const cacheLookups = new Map<string, number>();
  const buckets = new Array<number>(BUCKETS.length).fill(0);
  let latencySum = 0;
  let latencyCount = 0;
  let bytes = 0;
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  // Label sets repeat on every request: build each label text once.
  const labelTexts = new Map<string, string>();
  const requestLabels = (labels: { plan: string; status: number; code: string }) => {
    const id = `${labels.plan}|${labels.status}|${labels.code}`;
    let text = labelTexts.get(id);
    if (text === undefined) labelTexts.set(id, text = labelText(labels));
    return text;
  };

  return {
    request(labels, seconds) {
      bump(requests, requestLabels(labels));
      latencySum += seconds;
      latencyCount += 1;
      for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) buckets[i]! += 1;
    },
    cache(status) {
      bump(cacheLookups, `{status="${status}"}`);
    },
    fetchBytes(n) {
      bytes += n;
    },
    render(gauges) {
      const lines: string[] = [];
      lines.push("# HELP linkpeek_requests_total API requests by plan, HTTP status and code.");
      lines.push("# TYPE linkpeek_requests_total counter");
      for (const [labels, n] of requests) lines.push(`linkpeek_requests_total${labels} ${n}`);
      lines.push("# HELP linkpeek_request_duration_seconds API request latency.");
      lines.push("# TYPE linkpeek_request_duration_seconds histogram");
      BUCKETS.forEach((le, i) =>
        lines.push(`linkpeek_request_duration_seconds_bucket{le="${le}"} ${buckets[i]}`)
      );
      lines.push(`linkpeek_request_duration_seconds_bucket{le="+Inf"} ${latencyCount}`);
      lines.push(`linkpeek_request_duration_seconds_sum ${latencySum}`);
      lines.push(`linkpeek_request_duration_seconds_count ${latencyCount}`);
      lines.push("# HELP linkpeek_cache_lookups_total Response cache lookups by result.");
      lines.push("# TYPE linkpeek_cache_lookups_total counter");
      for (const [labels, n] of cacheLookups) {
        lines.push(`linkpeek_cache_lookups_total${labels} ${n}`);
      }
      const hits = (cacheLookups.get(labelText({ status: "HIT" })) ?? 0) +
        (cacheLookups.get(labelText({ status: "STALE" })) ?? 0);
      const lookups = [...cacheLookups.values()].reduce((a, b) => a + b, 0);
      lines.push("# HELP linkpeek_cache_hit_ratio Hits (fresh or stale) over lookups.");
      lines.push("# TYPE linkpeek_cache_hit_ratio gauge");
      lines.push(`linkpeek_cache_hit_ratio ${lookups ? hits / lookups : 0}`);
      lines.push("# HELP linkpeek_fetch_bytes_total Body bytes read from targets.");
      lines.push("# TYPE linkpeek_fetch_bytes_total counter");
      lines.push(`linkpeek_fetch_bytes_total ${bytes}`);
      for (const [name, value] of Object.entries(gauges)) {
        lines.push(`# TYPE ${name} gauge`);
        lines.push(`${name} ${value}`);
      }
      return lines.join("\n") + "\n";
    },
  };
}
