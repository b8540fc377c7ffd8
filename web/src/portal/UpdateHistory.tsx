import { useLanguage } from '../i18n/language';
import type { ClaimantStatus } from './claim-status';
import { StatusUpdateView } from './StatusUpdateView';

export function UpdateHistory({ history, contactName }: { history: ClaimantStatus['history']; contactName: string }) {
  const { t, language } = useLanguage();
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">{t('historyHeading')}</h2>
      <ol className="history">
        {history.items.map((item) => (
          <li key={item.update_id}>
            <h3>{t('sentOn', { date: new Date(item.sent_at).toLocaleString(language) })}</h3>
            <StatusUpdateView update={item.update} contactName={contactName} />
          </li>
        ))}
      </ol>
    </section>
  );
}
