import { lazy, Suspense } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isChunkLoadError, reloadOnceForChunkError } from './chunkReload';
import { LoadingBar } from './LoadingBar';

// antd's Result and providers load only when an error is shown.
const ErrorScreen = lazy(async () => {
  const antd = await import('./AntdRoot');
  await antd.prepareAntd();
  return import('./ErrorScreen');
});

/**
 * The routes' error element (spec section 8): a chunk load failure reloads the page once;
 * a 404 response shows the not-found page; anything else the error page with its status
 * (default 500) and message.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isChunkLoadError(error) && reloadOnceForChunkError()) return <LoadingBar active />;
  let status = 500;
  let message: string | undefined;
  if (isRouteErrorResponse(error)) {
    status = error.status;
    message = (typeof error.data === 'string' ? error.data : undefined) || error.statusText;
  } else if (error instanceof Error) {
    console.error(error);
    message = error.message;
  }
  return (
    <Suspense fallback={<LoadingBar active />}>
      <ErrorScreen status={status} message={message} />
    </Suspense>
  );
}
