import { formatDate, formatPhone } from '../i18n/format';
import { useLanguage } from '../i18n/language';
import { documentTypeName } from '../i18n/messages';
import type { StatusUpdate } from './portal-api';

/**
 * One update in the claimant's words: what happened, what next, what we need, when we write again, whom to
 * call. The StatusUpdate's contact holds a phone and an email only; the person's name is the claim's
 * (`contact_name`: the assigned adjuster, else the claims team). What it asked for is the message as sent;
 * `receivedSince` names the documents that arrived after it, and `asking` is false once the claim needs
 * nothing more (then its call to action is not offered).
 */
export function StatusUpdateView({
  update,
  contactName,
  receivedSince = [],
  asking = true,
}: {
  update: StatusUpdate;
  contactName: string;
  receivedSince?: string[];
  asking?: boolean;
}) {
  const { t, language } = useLanguage();
  const contact = update.contact;
  return (
    <dl className="update">
      <dt>{t('whatHappened')}</dt>
      <dd>{update.what_happened}</dd>
      <dt>{t('whatHappensNext')}</dt>
      <dd>{update.what_happens_next}</dd>
      {update.what_we_need_from_you && (
        <>
          <dt>{t('whatWeNeed')}</dt>
          <dd>
            {update.what_we_need_from_you}
            {asking && update.cta && (
              <>
                {' '}
                <a href={update.cta.url}>{update.cta.label}</a>
              </>
            )}
            {receivedSince.length > 0 && (
              <p className="received-since">
                {t('receivedSince', { documents: receivedSince.map((type) => documentTypeName(language, type)).join(', ') })}
              </p>
            )}
          </dd>
        </>
      )}
      {update.expected_next_update_by && (
        <>
          <dt>{t('nextUpdateBy')}</dt>
          <dd>
            <time dateTime={update.expected_next_update_by}>{formatDate(language, update.expected_next_update_by)}</time>
          </dd>
        </>
      )}
      {contact && (
        <>
          <dt>{t('contact')}</dt>
          <dd>
            {contactName}
            {' · '}
            <a href={`tel:${contact.phone}`}>{formatPhone(contact.phone)}</a>
            {' · '}
            <a href={`mailto:${contact.email}`}>{contact.email}</a>
          </dd>
        </>
      )}
    </dl>
  );
}
