/** Imported first by start.ts: one SDK for the three processes it runs, started before what it instruments is loaded. */
import { startTelemetry } from '@platform/telemetry';

export const telemetry = startTelemetry('platform');
