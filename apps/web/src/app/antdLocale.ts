import type { Locale as AntdLocale } from 'antd/es/locale';
import dayjs from 'dayjs';
import type { Locale } from '../i18n';

/** Loads antd's and dayjs' texts for the interface locale (only the current one is fetched). */
export async function loadAntdLocale(locale: Locale): Promise<AntdLocale> {
  switch (locale) {
    case 'en-US': {
      const mod = await import('antd/es/locale/en_US');
      dayjs.locale('en');
      return mod.default;
    }
    case 'ja': {
      const [mod] = await Promise.all([import('antd/es/locale/ja_JP'), import('dayjs/locale/ja')]);
      dayjs.locale('ja');
      return mod.default;
    }
    default: {
      const [mod] = await Promise.all([import('antd/es/locale/zh_CN'), import('dayjs/locale/zh-cn')]);
      dayjs.locale('zh-cn');
      return mod.default;
    }
  }
}
