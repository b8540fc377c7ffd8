import { useLanguage } from '../i18n/language';
import type { ClaimantStatus } from './portal-api';
import { timelineSteps } from './claim-progress';

/** The claim's lifecycle as steps: the stages it actually passed, where it is, and what is ahead while it is open. */
export function StageTimeline({ claim }: { claim: Pick<ClaimantStatus, 'stage' | 'stages_passed' | 'closing_reason'> }) {
  const { t } = useLanguage();
  return (
    <section aria-labelledby="stage-heading">
      <h2 id="stage-heading">{t('stageHeading')}</h2>
      <ol className="timeline">
        {timelineSteps(claim).map((step) => (
          <li
            key={step.stage}
            className={`timeline-step timeline-step--${step.state}`}
            aria-current={step.state === 'current' ? 'step' : undefined}
          >
            <span className="timeline-label">{t(step.label)}</span>
            {step.state === 'done' && <span className="visually-hidden"> ({t('stageDone')})</span>}
            {step.state === 'current' && <span className="visually-hidden"> ({t('stageCurrent')})</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
