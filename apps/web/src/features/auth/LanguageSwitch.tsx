import { GlobalOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLocale, LOCALES, switchLocale } from '../../i18n';

/** The login page's language switch: stores the locale cookie and reloads (spec section 4). */
export function LanguageSwitch() {
  const { t } = useTranslation('common');
  const active = currentLocale();
  return (
    <Space size={0} aria-label={t('language')} className="mq-language-switch" data-testid="language-switch">
      <GlobalOutlined aria-hidden />
      {LOCALES.map((locale) => (
        <Button
          key={locale}
          type="link"
          size="small"
          lang={locale}
          data-testid={`locale-${locale}`}
          aria-pressed={locale === active}
          className={locale === active ? 'mq-language-active' : undefined}
          onClick={() => locale !== active && switchLocale(locale)}
        >
          {t(`locale.${locale}`)}
        </Button>
      ))}
    </Space>
  );
}
