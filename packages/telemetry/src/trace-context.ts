import { RPCType, getRPCMetadata } from '@opentelemetry/core';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Context } from '@opentelemetry/api';

/** The platform's own spans (the instrumentations make the http, express, pg and amqplib ones). */
export const tracer = trace.getTracer('claims-platform');

/** W3C trace context as the CloudEvents distributed-tracing extension carries it. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

/** The active span's trace context; empty when tracing is off (no propagator is registered then). */
export function currentTraceContext(): TraceCarrier {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return {
    ...(carrier.traceparent ? { traceparent: carrier.traceparent } : {}),
    ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}),
  };
}

/** What every log line written inside a traced request or message carries: the active span's ids. */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** Names the route template of the HTTP request being served (`http.route` and the name of its server span) when no express route matched it. */
export function setHttpRoute(route: string): void {
  const metadata = getRPCMetadata(context.active());
  if (metadata?.type === RPCType.HTTP) metadata.route = route;
}

/** The context a carried trace context continues; the root context when it carries none. */
export function contextOf(carrier: TraceCarrier): Context {
  return propagation.extract(ROOT_CONTEXT, carrier);
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Continue this carried trace instead of the active one (work that runs later than the request that caused it). */
  parent?: TraceCarrier;
}

/** Runs `work` inside a new active span that ends with it, marked as an error when `work` throws. */
export function inSpan<T>(name: string, options: SpanOptions, work: () => Promise<T>): Promise<T> {
  const parent = options.parent ? contextOf(options.parent) : context.active();
  return tracer.startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  });
}

export { SpanKind };
