import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NotOnlineResult } from './NotOnlinePage';

/** 'Feature not online' for the logged-out pages (register, WeChat and DingTalk login). */
export default function PlainNotOnlinePage() {
  const { t } = useTranslation('menu');
  const navigate = useNavigate();
  return (
    <div className="mq-error-page" data-testid="not-online">
      <NotOnlineResult
        extra={
          <Button
            type="primary"
            href="/login"
            onClick={(event) => {
              event.preventDefault();
              navigate('/login');
            }}
          >
            {t('login')}
          </Button>
        }
      />
    </div>
  );
}
