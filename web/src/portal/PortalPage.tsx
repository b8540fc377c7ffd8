import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { BrandBar, useBrand } from '../brand/brand';
import { formatAmount, formatDate } from '../i18n/format';
import { LanguageProvider, useLanguage } from '../i18n/language';
import { LanguageSwitch } from '../i18n/LanguageSwitch';
import { portalLanguage, translate, type MessageKey } from '../i18n/messages';
import { takeAccessToken } from './access-token';
import './portal.css';
import { documentsReceivedSince, updateStillAsks } from './claim-progress';
import { useClaimStatus, type ClaimantStatus } from './portal-api';
import { DataCopySection } from './DataCopySection';
import { DocumentChecklist } from './DocumentChecklist';
import { LostLinkForm } from './LostLinkForm';
import { StageTimeline } from './StageTimeline';
import { StatusUpdateView } from './StatusUpdateView';
import { UpdateHistory } from './UpdateHistory';
import { UploadForm } from './UploadForm';
import { WithdrawSection } from './WithdrawSection';

/** /portal/claims/:claimId — the claim a link opens, in the claim's language first. */
export function PortalClaimPage() {
  const { claimId = '' } = useParams();
  const [token, setToken] = useState(() => takeAccessToken(claimId));
  useEffect(() => {
    // A new link opened in a tab already showing this claim changes only the fragment: no page load.
    const onLinkOpened = () => setToken(takeAccessToken(claimId));
    window.addEventListener('hashchange', onLinkOpened);
    return () => window.removeEventListener('hashchange', onLinkOpened);
  }, [claimId]);
  const status = useClaimStatus(claimId, token);
  const browserLanguage = portalLanguage(navigator.language);
  if (token && status.isPending) {
    return (
      <main className="portal" lang={browserLanguage}>
        <p role="status">{translate(browserLanguage, 'loading')}</p>
      </main>
    );
  }
  const claim = status.data ?? null;
  return (
    <LanguageProvider initial={portalLanguage(claim?.latest_update?.language ?? navigator.language)}>
      <PortalLayout title={claim ? { key: 'claimNumber', number: claim.claim_number } : undefined}>
        {claim && token ? <ClaimView claim={claim} token={token} /> : <NoAccess />}
      </PortalLayout>
    </LanguageProvider>
  );
}

/** /portal — where a claimant reports a new loss, or asks for a new link to a claim. */
export function PortalHomePage() {
  return (
    <LanguageProvider initial={portalLanguage(navigator.language)}>
      <PortalLayout>
        <ReportLink />
        <LostLinkForm />
      </PortalLayout>
    </LanguageProvider>
  );
}

function ReportLink() {
  const { t } = useLanguage();
  return (
    <p className="report-link">
      <Link to="/portal/report">{t('reportLink')}</Link>
    </p>
  );
}

export function PortalLayout({
  title,
  headingKey = 'appTitle',
  children,
}: {
  title?: { key: 'claimNumber'; number: string };
  headingKey?: MessageKey;
  children: ReactNode;
}) {
  const { t, language } = useLanguage();
  const heading = useRef<HTMLHeadingElement>(null);
  const brandName = useBrand()?.name;
  const text = title ? t('claimNumber', { number: title.number }) : t(headingKey);
  useEffect(() => {
    document.documentElement.lang = language;
    // the page names the insurer (BRAND_NAME), never the platform
    document.title = [text, brandName ?? ''].filter(Boolean).join(' · ');
  }, [language, text, brandName]);
  // A page opened from a link starts with focus on its heading, so keyboard and screen-reader users begin at the
  // top — or on the upload form when the link asked for documents (`#upload`).
  useEffect(() => {
    const target = window.location.hash === '#upload' ? document.getElementById('upload') : heading.current;
    target?.focus();
  }, []);
  return (
    <div className="portal">
      <BrandBar />
      <header className="portal-header">
        <h1 ref={heading} tabIndex={-1}>
          {text}
        </h1>
        <LanguageSwitch />
      </header>
      <main>{children}</main>
    </div>
  );
}

function NoAccess() {
  const { t } = useLanguage();
  return (
    <>
      <p className="notice">{t('noAccess')}</p>
      <LostLinkForm />
    </>
  );
}

function ClaimView({ claim, token }: { claim: ClaimantStatus; token: string }) {
  const { t } = useLanguage();
  const open = claim.stage !== 'closed';
  const withdrawable = open && claim.stage !== 'settlement';
  // history is newest first: its first item is the latest update, with the time it was sent
  const latestSentAt = claim.history.items[0]?.sent_at;
  return (
    <>
      <StageTimeline claim={claim} />
      {!open && <p className="notice">{t('closedAsksNothing')}</p>}
      <section aria-labelledby="latest-heading">
        <h2 id="latest-heading">{t('latestHeading')}</h2>
        {claim.latest_update ? (
          <StatusUpdateView
            update={claim.latest_update}
            contactName={claim.contact_name}
            receivedSince={latestSentAt ? documentsReceivedSince(latestSentAt, claim) : []}
            asking={latestSentAt ? updateStillAsks(latestSentAt, claim) : open}
          />
        ) : (
          <p>{t('noUpdate')}</p>
        )}
      </section>
      <DocumentChecklist documents={claim.required_documents} attachments={claim.attachments} closed={!open} />
      {open && <UploadForm claimId={claim.claim_id} token={token} documents={claim.required_documents} />}
      {claim.payments.length > 0 && <PaymentsToYou payments={claim.payments} />}
      <UpdateHistory claim={claim} />
      <DataCopySection claimId={claim.claim_id} token={token} />
      {withdrawable && <WithdrawSection claimId={claim.claim_id} claimNumber={claim.claim_number} token={token} />}
    </>
  );
}

/** What was paid to the claimant (amount, day, method), newest first; reserves and others' payments never reach the portal. */
function PaymentsToYou({ payments }: { payments: ClaimantStatus['payments'] }) {
  const { t, language } = useLanguage();
  return (
    <section aria-labelledby="payments-heading">
      <h2 id="payments-heading">{t('paymentsHeading')}</h2>
      <ul>
        {payments.map((payment, index) => (
          <li key={index} data-testid="payment-to-you">
            {t('paymentLine', {
              amount: formatAmount(language, payment.amount),
              date: formatDate(language, payment.paid_on),
              method: t(`method_${payment.method}`),
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}
