#!/usr/bin/env python3
"""A small OTLP receiver for hookrun's telemetry tests.

It decodes every export with the OpenTelemetry project's own protocol
definitions (the `opentelemetry-proto` package), never with hookrun's
encoder, and prints one JSON line per export on stdout:

    {"signal": "traces", "encoding": "protobuf", "items": [...]}

`items` are spans, metric points or log records, flattened for assertions
(ids as hex, attributes as a plain dict). The first line is
`{"listening": PORT}`.

    receiver.py --protocol http|grpc [--hang]

`--hang` accepts every connection and never answers (a collector that is
stuck). OTLP/JSON's trace and span ids are hex, not the base64 of
protobuf's JSON mapping: they are turned back into bytes before the
message is parsed, as the OTLP specification says.
"""

import argparse
import base64
import json
import sys
import threading
import time
from concurrent import futures
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import grpc
from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2, logs_service_pb2_grpc
from opentelemetry.proto.collector.metrics.v1 import (
    metrics_service_pb2,
    metrics_service_pb2_grpc,
)
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

REQUESTS = {
    "traces": (
        trace_service_pb2.ExportTraceServiceRequest,
        trace_service_pb2.ExportTraceServiceResponse,
    ),
    "metrics": (
        metrics_service_pb2.ExportMetricsServiceRequest,
        metrics_service_pb2.ExportMetricsServiceResponse,
    ),
    "logs": (
        logs_service_pb2.ExportLogsServiceRequest,
        logs_service_pb2.ExportLogsServiceResponse,
    ),
}

ID_KEYS = {"traceId", "spanId", "parentSpanId", "trace_id", "span_id", "parent_span_id"}

LOCK = threading.Lock()


def emit(line):
    with LOCK:
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()


def any_value(v):
    kind = v.WhichOneof("value")
    if kind is None:
        return None
    if kind == "array_value":
        return [any_value(x) for x in v.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: any_value(kv.value) for kv in v.kvlist_value.values}
    return getattr(v, kind)


def attrs(kvs):
    return {kv.key: any_value(kv.value) for kv in kvs}


def spans_of(req):
    out = []
    for rs in req.resource_spans:
        resource = attrs(rs.resource.attributes)
        for ss in rs.scope_spans:
            for s in ss.spans:
                out.append(
                    {
                        "name": s.name,
                        "trace_id": s.trace_id.hex(),
                        "span_id": s.span_id.hex(),
                        "parent_span_id": s.parent_span_id.hex(),
                        "start": s.start_time_unix_nano,
                        "end": s.end_time_unix_nano,
                        "status": s.status.code,
                        "attributes": attrs(s.attributes),
                        "resource": resource,
                        "scope": ss.scope.name,
                    }
                )
    return out


def metrics_of(req):
    out = []
    for rm in req.resource_metrics:
        resource = attrs(rm.resource.attributes)
        for sm in rm.scope_metrics:
            for m in sm.metrics:
                kind = m.WhichOneof("data")
                data = getattr(m, kind)
                points = []
                for p in data.data_points:
                    point = {"attributes": attrs(p.attributes)}
                    if kind == "histogram":
                        point.update(
                            count=p.count,
                            sum=p.sum,
                            bounds=list(p.explicit_bounds),
                            buckets=list(p.bucket_counts),
                        )
                    else:
                        point["value"] = getattr(p, p.WhichOneof("value"))
                    points.append(point)
                out.append(
                    {
                        "name": m.name,
                        "unit": m.unit,
                        "kind": kind,
                        "temporality": getattr(data, "aggregation_temporality", 0),
                        "monotonic": getattr(data, "is_monotonic", None),
                        "points": points,
                        "resource": resource,
                    }
                )
    return out


def logs_of(req):
    out = []
    for rl in req.resource_logs:
        resource = attrs(rl.resource.attributes)
        for sl in rl.scope_logs:
            for r in sl.log_records:
                out.append(
                    {
                        "body": any_value(r.body),
                        "attributes": attrs(r.attributes),
                        "severity": r.severity_number,
                        "severity_text": r.severity_text,
                        "event_name": r.event_name,
                        "trace_id": r.trace_id.hex(),
                        "span_id": r.span_id.hex(),
                        "time": r.time_unix_nano,
                        "resource": resource,
                    }
                )
    return out


ITEMS = {"traces": spans_of, "metrics": metrics_of, "logs": logs_of}


def hex_ids_to_base64(node):
    if isinstance(node, dict):
        return {
            k: (
                base64.b64encode(bytes.fromhex(v)).decode()
                if k in ID_KEYS and isinstance(v, str)
                else hex_ids_to_base64(v)
            )
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [hex_ids_to_base64(x) for x in node]
    return node


def decoded(signal, body, content_type):
    request_type, _ = REQUESTS[signal]
    req = request_type()
    if content_type.startswith("application/json"):
        json_format.ParseDict(hex_ids_to_base64(json.loads(body)), req)
        return req, "json"
    req.ParseFromString(body)
    return req, "protobuf"


def http_server(hang):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            if hang:
                time.sleep(3600)
                return
            signal = self.path.rstrip("/").rsplit("/", 1)[-1]
            if signal not in REQUESTS:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            content_type = self.headers.get("Content-Type", "")
            try:
                req, encoding = decoded(signal, body, content_type)
            except Exception as e:  # noqa: BLE001 - any decode failure is reported
                emit({"signal": signal, "error": f"{type(e).__name__}: {e}"})
                self.send_response(400)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            emit(
                {
                    "signal": signal,
                    "encoding": encoding,
                    "headers": {k.lower(): v for k, v in self.headers.items()},
                    "items": ITEMS[signal](req),
                }
            )
            _, response_type = REQUESTS[signal]
            if encoding == "json":
                answer = json_format.MessageToJson(response_type()).encode()
            else:
                answer = response_type().SerializeToString()
            self.send_response(200)
            self.send_header("Content-Type", content_type or "application/x-protobuf")
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    emit({"listening": server.server_address[1]})
    server.serve_forever()


def grpc_server(hang):
    def servicer(base, signal):
        class Servicer(base):
            def Export(self, request, context):
                if hang:
                    time.sleep(3600)
                metadata = {k: v for k, v in context.invocation_metadata()}
                emit(
                    {
                        "signal": signal,
                        "encoding": "grpc",
                        "headers": metadata,
                        "items": ITEMS[signal](request),
                    }
                )
                return REQUESTS[signal][1]()

        return Servicer()

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(
        servicer(trace_service_pb2_grpc.TraceServiceServicer, "traces"), server
    )
    metrics_service_pb2_grpc.add_MetricsServiceServicer_to_server(
        servicer(metrics_service_pb2_grpc.MetricsServiceServicer, "metrics"), server
    )
    logs_service_pb2_grpc.add_LogsServiceServicer_to_server(
        servicer(logs_service_pb2_grpc.LogsServiceServicer, "logs"), server
    )
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    emit({"listening": port})
    server.wait_for_termination()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--protocol", choices=["http", "grpc"], default="http")
    parser.add_argument("--hang", action="store_true")
    args = parser.parse_args()
    if args.protocol == "grpc":
        grpc_server(args.hang)
    else:
        http_server(args.hang)


if __name__ == "__main__":
    main()
