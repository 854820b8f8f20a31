import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '../../components/LinkButton';

/** Spec sections 2 and 8: 404 'This page could not be found' with a back-to-home link. */
export default function NotFoundPage() {
  const { t } = useTranslation('pages');
  return (
    <div className="mq-error-page" data-testid="not-found">
      <Result
        status="404"
        title="404"
        subTitle={t('notFound.title')}
        extra={
          <LinkButton type="primary" to="/">
            {t('notFound.backHome')}
          </LinkButton>
        }
      />
    </div>
  );
}
