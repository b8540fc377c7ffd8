import { telemetry } from './tracing';
import { serviceMain } from '@platform/runtime';
import { readClaimsConfig } from './config';
import { claimsService } from './service';

serviceMain({ name: 'claims', readConfig: readClaimsConfig, define: claimsService, telemetry });
