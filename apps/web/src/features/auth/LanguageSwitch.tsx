import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { useTranslation } from 'react-i18next';
import { SvgIcon } from '../../components/plain/SvgIcon';
import { currentLocale, LOCALES, switchLocale } from '../../i18n';

/** The login page's language switch: stores the locale cookie and reloads (spec section 4). */
export function LanguageSwitch() {
  const { t } = useTranslation('common');
  const active = currentLocale();
  return (
    <nav className="mq-language-switch" aria-label={t('language')} data-testid="language-switch">
      <SvgIcon icon={GlobalOutlined} />
      {LOCALES.map((locale) => (
        <button
          key={locale}
          type="button"
          lang={locale}
          className={locale === active ? 'mq-link-button mq-language-active' : 'mq-link-button'}
          aria-pressed={locale === active}
          onClick={() => locale !== active && switchLocale(locale)}
          data-testid={`locale-${locale}`}
        >
          {t(`locale.${locale}`)}
        </button>
      ))}
    </nav>
  );
}
