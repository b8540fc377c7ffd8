import { formatDate } from '../i18n/format';
import { useLanguage } from '../i18n/language';
import { documentsReceivedSince, updateStillAsks } from './claim-progress';
import type { ClaimantStatus } from './portal-api';
import { StatusUpdateView } from './StatusUpdateView';

export function UpdateHistory({ claim }: { claim: ClaimantStatus }) {
  const { t, language } = useLanguage();
  const { history, contact_name: contactName } = claim;
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">{t('historyHeading')}</h2>
      <ol className="history">
        {history.items.map((item) => (
          <li key={item.update_id}>
            <h3>{t('sentOn', { date: formatDate(language, item.sent_at) })}</h3>
            <StatusUpdateView
              update={item.update}
              contactName={contactName}
              receivedSince={documentsReceivedSince(item.sent_at, claim)}
              asking={updateStillAsks(item.sent_at, claim)}
            />
          </li>
        ))}
      </ol>
    </section>
  );
}
