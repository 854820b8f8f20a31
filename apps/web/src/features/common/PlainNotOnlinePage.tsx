import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../components/LinkButton';
import { NotOnlineResult } from './NotOnlinePage';

/** 'Feature not online' for the logged-out pages (register, WeChat and DingTalk login). */
export default function PlainNotOnlinePage() {
  const { t } = useTranslation('menu');
  return (
    <div className="mq-error-page" data-testid="not-online">
      <NotOnlineResult
        extra={
          <LinkButton type="primary" to="/login">
            {t('login')}
          </LinkButton>
        }
      />
    </div>
  );
}
