import type { OAuthProvider } from '@marquee/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from './LanguageSwitch';
import ScanLogin from './ScanLogin';

/** The scan login of one provider as a page (routes /wechatLogin and /dingTalkLogin). */
export function ScanLoginPage({ provider }: { provider: OAuthProvider }) {
  const { t } = useTranslation(['login', 'common']);
  return (
    <div className="mq-login" data-testid={`${provider}-login-page`}>
      <aside className="mq-login-brand">
        <div className="mq-login-logo" aria-hidden>
          M
        </div>
        <h1>{t('common:app.name')}</h1>
        <p>{t('subtitle')}</p>
      </aside>
      <main className="mq-login-panel">
        <div className="mq-login-top">
          <LanguageSwitch />
        </div>
        <section className="mq-login-card">
          <h2>{t(`tab.${provider}`)}</h2>
          <ScanLogin provider={provider} />
          <div className="mq-login-footer">
            <Link to="/login" data-testid="scan-page-login">
              {t('scan.otherMethods')}
            </Link>
          </div>
        </section>
      </main>
    </div>
  );
}
