import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** Spec sections 2 and 8: 404 'This page could not be found' with a back-to-home link. */
export default function NotFoundPage() {
  const { t } = useTranslation('pages');
  const navigate = useNavigate();
  return (
    <div className="mq-error-page" data-testid="not-found">
      <Result
        status="404"
        title="404"
        subTitle={t('notFound.title')}
        extra={
          <Button
            type="primary"
            href="/"
            onClick={(event) => {
              event.preventDefault();
              navigate('/');
            }}
          >
            {t('notFound.backHome')}
          </Button>
        }
      />
    </div>
  );
}
