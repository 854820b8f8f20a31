import type { ThemeConfig } from 'antd';
import { theme } from 'antd';
import { SKIN_TOKENS, type Skin } from '../session/skinTokens';

/**
 * Skins (spec sections 1 and 9, guide convention 10): skin n is a function of a few tokens.
 * It sets the body class `theme-<n>`, CSS variables for the shell's own styles, and the antd
 * theme (the dark algorithm for skin 4). Default skin is 1.
 */
export * from '../session/skinTokens';

/** The antd theme of a skin. */
export function skinTheme(skin: Skin): ThemeConfig {
  const t = SKIN_TOKENS[skin];
  return {
    algorithm: t.dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    token: {
      colorPrimary: t.primary,
      colorInfo: t.primary,
      colorLink: t.primary,
      colorBgLayout: t.background,
      colorBgContainer: t.container,
      borderRadius: 6,
    },
    components: {
      Layout: { bodyBg: t.background, headerBg: t.container, siderBg: t.menuBackground },
      Menu: t.dark
        ? { darkItemBg: t.menuBackground, darkSubMenuItemBg: t.menuBackground }
        : { itemBg: t.menuBackground },
    },
  };
}
