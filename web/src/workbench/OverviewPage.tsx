import { useQuery } from '@tanstack/react-query';
import { CLAIM_STAGES } from '@platform/claims-domain';
import { api } from '../api/client';
import { humanise } from './QueuePage';
import { RequestFailed } from './RequestFailed';
import { DEADLINES, type ListClaimsQuery } from './queue-filters';
import { authHeader, type WorkbenchSession } from './session';
import { usePageTitle, useSession } from './WorkbenchSession';
import { problemDetail } from '../api/problem';

/** The API has no count operation: each bar counts one list page of up to COUNT_CAP claims (shown as "100+"). */
const COUNT_CAP = 100;

interface Bar {
  label: string;
  count: number;
  tone: 'stage' | 'breach' | 'escalation';
}

async function countClaims(session: WorkbenchSession, query: ListClaimsQuery): Promise<number> {
  const { data, error } = await api.GET('/api/claims/claims', {
    params: { query: { ...query, limit: COUNT_CAP } },
    headers: authHeader(session),
  });
  if (error) throw new Error(problemDetail(error, 'The claims could not be counted'));
  return data.items.length;
}

/** Horizontal bars drawn as SVG by the page (no chart library, nothing from a CDN). */
export function BarChart({ bars, title }: { bars: Bar[]; title: string }) {
  const max = Math.max(1, ...bars.map((bar) => bar.count));
  const rowHeight = 28;
  return (
    <svg
      className="chart"
      role="img"
      aria-label={`${title}: ${bars.map((bar) => `${bar.label} ${bar.count}`).join(', ')}`}
      viewBox={`0 0 520 ${bars.length * rowHeight + 8}`}
      width="100%"
    >
      {bars.map((bar, index) => {
        const y = index * rowHeight + 4;
        const width = (bar.count / max) * 300;
        return (
          <g key={bar.label}>
            <text x={0} y={y + 17} className="chart-label">
              {bar.label}
            </text>
            <rect x={180} y={y} width={Math.max(width, 1)} height={20} className={`chart-bar chart-bar--${bar.tone}`} />
            <text x={186 + width} y={y + 15} className="chart-value">
              {bar.count >= COUNT_CAP ? `${COUNT_CAP}+` : bar.count}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** /workbench/overview — open claims by stage, broken deadlines, escalations waiting. */
export function OverviewPage() {
  usePageTitle('Overview');
  const session = useSession();
  const overview = useQuery({
    queryKey: ['overview'],
    queryFn: async () => {
      const openStages = CLAIM_STAGES.filter((stage) => stage !== 'closed');
      const [byStage, byDeadline, escalations] = await Promise.all([
        Promise.all(
          openStages.map(async (stage): Promise<Bar> => ({
            label: humanise(stage),
            count: await countClaims(session, { stage: [stage] }),
            tone: 'stage',
          })),
        ),
        Promise.all(
          DEADLINES.map(async (deadline): Promise<Bar> => ({
            label: humanise(deadline),
            count: await countClaims(session, { overdue: true, deadline }),
            tone: 'breach',
          })),
        ),
        countClaims(session, { escalation: 'open' }),
      ]);
      return { byStage, byDeadline, escalations };
    },
  });
  return (
    <main>
      <h1>Overview</h1>
      {overview.error && <RequestFailed what="The overview" error={overview.error} onRetry={() => void overview.refetch()} />}
      {overview.isPending && <p role="status">Loading…</p>}
      {overview.data && (
        <>
          <h2>Open claims by stage</h2>
          <BarChart title="Open claims by stage" bars={overview.data.byStage} />
          <h2>Broken deadlines</h2>
          <BarChart title="Open claims past a deadline" bars={overview.data.byDeadline} />
          <h2>Escalations waiting for a lead</h2>
          <BarChart title="Escalations waiting" bars={[{ label: 'waiting', count: overview.data.escalations, tone: 'escalation' }]} />
        </>
      )}
    </main>
  );
}
