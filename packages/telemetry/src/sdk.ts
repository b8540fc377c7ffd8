import { registerInstrumentations, type InstrumentationBase } from '@opentelemetry/instrumentation';
import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { readConfig, variable } from '@platform/config';

export const telemetryVariables = {
  OTEL_EXPORTER_OTLP_ENDPOINT: variable.url(
    'OTLP/HTTP collector to send traces to (`/v1/traces` is appended). Unset: tracing is off and no SDK starts',
    ['http', 'https'],
  ),
  OTEL_SERVICE_NAME: variable.string(
    'The `service.name` of the traces; defaults to the process (gateway, claims, evidence, or platform for `pnpm start`)',
  ),
};

export interface Telemetry {
  instrumentations: InstrumentationBase[];
  /** Flushes what is buffered and stops tracing. */
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** Where spans go instead of OTLP (a test's in-memory exporter); tracing starts even with no endpoint set. */
  exporter?: SpanExporter;
  env?: NodeJS.ProcessEnv;
}

/**
 * Starts the OpenTelemetry SDK once for the process: tracer provider, W3C propagation, and the http, express, pg
 * and amqplib instrumentations. Call it before those modules are loaded: the instrumentations patch them as they
 * are required. With no OTEL_EXPORTER_OTLP_ENDPOINT (and no exporter given) nothing starts and tracing costs nothing.
 */
export function startTelemetry(processName: string, options: TelemetryOptions = {}): Telemetry | undefined {
  const config = readConfig(telemetryVariables, options.env);
  if (!options.exporter && !config.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  const spanProcessor = options.exporter ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.OTEL_SERVICE_NAME ?? processName }),
    spanProcessors: [spanProcessor],
  });
  provider.register();
  const instrumentations: InstrumentationBase[] = [
    // Probes and scrapes would otherwise be most of the traces.
    new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)\b/.test(req.url ?? '') }),
    new ExpressInstrumentation(),
    new PgInstrumentation({ requireParentSpan: true }),
    new AmqplibInstrumentation(),
  ];
  const unregister = registerInstrumentations({ tracerProvider: provider, instrumentations });
  return {
    instrumentations,
    async shutdown() {
      unregister();
      await provider.shutdown();
    },
  };
}
