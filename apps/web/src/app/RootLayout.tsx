import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { currentHandle } from '../components/routeHandle';
import { useSession } from '../session/session';
import { LoadingBar } from './LoadingBar';

/** The root of every route: loading bar, document title, login state after each navigation. */
export function RootLayout() {
  const navigation = useNavigation();
  const location = useLocation();
  const matches = useMatches();
  const { t } = useTranslation('common');
  const titleKey = currentHandle(matches)?.title;

  // Spec section 4: the logged-out flag is evaluated after each navigation.
  const { pathname } = location;
  useEffect(() => {
    if (pathname) useSession.getState().syncLoginout();
  }, [pathname]);

  useEffect(() => {
    const page = titleKey ? t(titleKey, { ns: 'menu' }) : '';
    document.title = page ? t('docTitle', { title: page }) : t('app.name');
  }, [titleKey, t]);

  return (
    <>
      <LoadingBar active={navigation.state !== 'idle'} />
      <Outlet />
    </>
  );
}

/** Layout of the pages used when not logged in (spec section 2 "Layouts"). */
export function PlainLayout() {
  return (
    <div className="mq-plain">
      <Outlet />
    </div>
  );
}

/** Shown while the first route's code loads. */
export function BootFallback() {
  return <LoadingBar active />;
}
