import type { OAuthProvider } from '@marquee/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthFrame } from './AuthFrame';
import ScanLogin from './ScanLogin';

/** The scan login of one provider as a page (routes /wechatLogin and /dingTalkLogin). */
export function ScanLoginPage({ provider }: { provider: OAuthProvider }) {
  const { t } = useTranslation(['login', 'common']);
  return (
    <AuthFrame
      testId={`${provider}-login-page`}
      brand={t('common:app.name')}
      subtitle={t('subtitle')}
      title={t(`tab.${provider}`)}
      footer={
        <Link to="/login" data-testid="scan-page-login">
          {t('scan.otherMethods')}
        </Link>
      }
    >
      <ScanLogin provider={provider} />
    </AuthFrame>
  );
}
