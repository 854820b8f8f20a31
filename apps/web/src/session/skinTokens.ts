/**
 * The tokens of the skins and the body side of a skin (class `theme-<n>` and CSS variables),
 * without antd, so the first page load (login) does not carry antd. `skins.ts` adds the antd
 * theme and re-exports all of this.
 */
export type Skin = 1 | 2 | 3 | 4;

export const SKINS: readonly Skin[] = [1, 2, 3, 4];
export const DEFAULT_SKIN: Skin = 1;

export interface SkinTokens {
  /** i18n key (namespace `pages`) of the skin's name. */
  name: string;
  /**
   * Fill of primary buttons, selected items and the login page's accents: white text on it
   * and it as text on white reach WCAG AA (4.5:1).
   */
  primary: string;
  /** Primary-coloured text and links on `container` and `background` (4.5:1 or more). */
  primaryText: string;
  /** Page background behind the content cards. */
  background: string;
  /** Cards, tables, header. */
  container: string;
  /** Side navigation bar. */
  menuBackground: string;
  menuText: string;
  dark: boolean;
}

export const SKIN_TOKENS: Readonly<Record<Skin, SkinTokens>> = {
  1: {
    name: 'skin.light',
    // antd's #1677ff is 4.1:1 on white; this blue is 5.2:1 (4.8:1 on the page background).
    primary: '#1668dc',
    primaryText: '#1668dc',
    background: '#f5f7fa',
    container: '#ffffff',
    menuBackground: '#ffffff',
    menuText: '#1f2329',
    dark: false,
  },
  2: {
    name: 'skin.red',
    primary: '#cf1322',
    primaryText: '#cf1322',
    background: '#fbf4f4',
    container: '#ffffff',
    menuBackground: '#a8071a',
    menuText: '#ffffff',
    dark: false,
  },
  3: {
    name: 'skin.blue',
    primary: '#1d4ed8',
    primaryText: '#1d4ed8',
    background: '#eef3fc',
    container: '#ffffff',
    menuBackground: '#102a83',
    menuText: '#ffffff',
    dark: false,
  },
  4: {
    name: 'skin.dark',
    // No one blue carries white text and reads on the dark cards too: buttons take the
    // darker fill, text and links the lighter blue (6.8:1 on the cards).
    primary: '#1668dc',
    primaryText: '#65a9f3',
    background: '#101114',
    container: '#1c1d21',
    menuBackground: '#08090b',
    menuText: 'rgba(255, 255, 255, 0.85)',
    dark: true,
  },
};

export function isSkin(value: unknown): value is Skin {
  return typeof value === 'number' && (SKINS as readonly number[]).includes(value);
}

/** Coerces a stored value to a skin; anything unknown is the default skin. */
export function toSkin(value: unknown): Skin {
  const n = typeof value === 'string' ? Number(value) : value;
  return isSkin(n) ? n : DEFAULT_SKIN;
}

/** The body class of a skin. */
export function skinClass(skin: Skin): string {
  return `theme-${skin}`;
}

/** CSS variables of a skin, for styles outside antd (side bar, header, banners). */
export function skinCssVariables(skin: Skin): Record<string, string> {
  const t = SKIN_TOKENS[skin];
  return {
    '--mq-primary': t.primary,
    '--mq-primary-text': t.primaryText,
    '--mq-bg': t.background,
    '--mq-container': t.container,
    '--mq-menu-bg': t.menuBackground,
    '--mq-menu-text': t.menuText,
  };
}

/** Puts `theme-<n>` on document.body (removing other skins' classes) and sets the CSS variables. */
export function applySkinToBody(skin: Skin, body: HTMLElement | undefined = globalThis.document?.body): void {
  if (!body) return;
  for (const s of SKINS) body.classList.remove(skinClass(s));
  body.classList.add(skinClass(skin));
  for (const [name, value] of Object.entries(skinCssVariables(skin))) body.style.setProperty(name, value);
  body.style.colorScheme = SKIN_TOKENS[skin].dark ? 'dark' : 'light';
}
