import { humanise } from './QueuePage';
import { RequestFailed } from './RequestFailed';
import { COUNT_CAP, useOverview } from './queue-api';
import { usePageTitle } from './WorkbenchSession';

interface Bar {
  label: string;
  count: number;
  tone: 'stage' | 'breach' | 'escalation';
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
  const overview = useOverview();
  const bars = overview.data && {
    byStage: overview.data.byStage.map(({ stage, count }): Bar => ({ label: humanise(stage), count, tone: 'stage' })),
    byDeadline: overview.data.byDeadline.map(({ deadline, count }): Bar => ({ label: humanise(deadline), count, tone: 'breach' })),
  };
  return (
    <main>
      <h1>Overview</h1>
      {overview.error && <RequestFailed what="The overview" error={overview.error} onRetry={() => void overview.refetch()} />}
      {overview.isPending && <p role="status">Loading…</p>}
      {overview.data && bars && (
        <>
          <h2>Open claims by stage</h2>
          <BarChart title="Open claims by stage" bars={bars.byStage} />
          <h2>Broken deadlines</h2>
          <BarChart title="Open claims past a deadline" bars={bars.byDeadline} />
          <h2>Escalations waiting for a lead</h2>
          <BarChart title="Escalations waiting" bars={[{ label: 'waiting', count: overview.data.escalations, tone: 'escalation' }]} />
        </>
      )}
    </main>
  );
}
