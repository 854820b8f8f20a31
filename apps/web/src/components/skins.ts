import type { ThemeConfig } from 'antd';
import { theme } from 'antd';
import { SKIN_TOKENS, type Skin } from '../session/skinTokens';

/**
 * Skins (spec sections 1 and 9, guide convention 10): skin n is a function of a few tokens.
 * It sets the body class `theme-<n>`, CSS variables for the shell's own styles, and the antd
 * theme (the dark algorithm for skin 4). Default skin is 1.
 */
export * from '../session/skinTokens';

/**
 * Secondary text levels that keep WCAG AA (4.5:1) on the cards and the page background; antd's
 * defaults (black or white at 45% and 25%) give 3.4:1 and 1.6:1. Disabled text keeps antd's.
 */
const TEXT_LEVELS = {
  light: { tertiary: 'rgba(0, 0, 0, 0.58)', placeholder: 'rgba(0, 0, 0, 0.55)' },
  dark: { tertiary: 'rgba(255, 255, 255, 0.58)', placeholder: 'rgba(255, 255, 255, 0.5)' },
};

/**
 * Status colours as text (error messages, status tags on their pale fills): antd's #ff4d4f,
 * #52c41a and #d48806 give 3.3, 2.2 and 2.8:1 there. Tags take darker (light skins) or
 * lighter (dark skin) steps of the same hues, and the two preset tags in use that fell short.
 */
const STATUS_TEXT = {
  light: { error: '#cf1322', success: '#237804', warning: '#874d00', tag: { gold7: '#874d00' } },
  dark: { error: '#ff7875', success: '#8fd460', warning: '#e8b339', tag: { purple7: '#ab7ae0' } },
};

/** The antd theme of a skin. */
export function skinTheme(skin: Skin): ThemeConfig {
  const t = SKIN_TOKENS[skin];
  const text = TEXT_LEVELS[t.dark ? 'dark' : 'light'];
  const status = STATUS_TEXT[t.dark ? 'dark' : 'light'];
  return {
    algorithm: t.dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      colorPrimary: t.primary,
      colorInfo: t.primary,
      colorLink: t.primaryText,
      colorLinkHover: t.primaryText,
      colorPrimaryText: t.primaryText,
      colorPrimaryTextHover: t.primaryText,
      colorTextTertiary: text.tertiary,
      colorTextDescription: text.tertiary,
      colorTextPlaceholder: text.placeholder,
      colorError: status.error,
      colorBgLayout: t.background,
      colorBgContainer: t.container,
      borderRadius: 6,
    },
    components: {
      // The empty table's text is antd's disabled grey (1.8:1); it is a message, not a disabled control.
      Table: { colorTextDisabled: text.placeholder },
      Tag: { colorSuccess: status.success, colorWarning: status.warning, colorError: status.error, ...status.tag },
      // Amounts in and out (the finance centre) are success and danger text.
      Typography: { colorSuccessText: status.success, colorWarningText: status.warning, colorErrorText: status.error },
      Tabs: {
        itemSelectedColor: t.primaryText,
        itemHoverColor: t.primaryText,
        itemActiveColor: t.primaryText,
        inkBarColor: t.primaryText,
      },
      Layout: { bodyBg: t.background, headerBg: t.container, siderBg: t.menuBackground },
      Menu: t.dark
        ? { darkItemBg: t.menuBackground, darkSubMenuItemBg: t.menuBackground }
        : { itemBg: t.menuBackground },
    },
  };
}
