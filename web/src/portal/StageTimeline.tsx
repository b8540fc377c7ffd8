import { CLAIM_STAGES, type ClaimStage } from '@platform/claims-domain';
import { useLanguage } from '../i18n/language';

/** The claim's lifecycle as steps; waiting_on_customer is shown only while the claim is in it (it is a side step, not a milestone). */
export function StageTimeline({ stage }: { stage: ClaimStage }) {
  const { t } = useLanguage();
  const steps = CLAIM_STAGES.filter((step) => step !== 'waiting_on_customer' || stage === 'waiting_on_customer');
  const current = steps.indexOf(stage);
  return (
    <section aria-labelledby="stage-heading">
      <h2 id="stage-heading">{t('stageHeading')}</h2>
      <ol className="timeline">
        {steps.map((step, index) => {
          const state = index < current ? 'done' : index === current ? 'current' : 'upcoming';
          return (
            <li key={step} className={`timeline-step timeline-step--${state}`} aria-current={state === 'current' ? 'step' : undefined}>
              <span className="timeline-label">{t(`stage_${step}`)}</span>
              {state === 'done' && <span className="visually-hidden"> ({t('stageDone')})</span>}
              {state === 'current' && <span className="visually-hidden"> ({t('stageCurrent')})</span>}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
