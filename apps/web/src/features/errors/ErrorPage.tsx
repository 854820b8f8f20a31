import { Button, Result, Space } from 'antd';
import type { ResultStatusType } from 'antd/es/result';
import { useTranslation } from 'react-i18next';

/** The error page (spec section 2 "Layouts"): a status code (default 500) and a message. */
export function ErrorPage({ status = 500, message }: { status?: number; message?: string }) {
  const { t } = useTranslation('pages');
  const known: ResultStatusType = status === 403 ? '403' : status >= 500 ? '500' : 'error';
  const text = message || t(`error.${status}`, { defaultValue: t('error.default') });
  return (
    <div className="mq-error-page" data-testid="error-page" data-status={status}>
      <Result
        status={known}
        title={String(status)}
        subTitle={text}
        extra={
          <Space>
            <Button type="primary" href="/">
              {t('error.backHome')}
            </Button>
            <Button onClick={() => window.location.reload()}>{t('error.reload')}</Button>
          </Space>
        }
      />
    </div>
  );
}
