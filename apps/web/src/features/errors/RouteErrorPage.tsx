import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isChunkLoadError, reloadOnceForChunkError } from '../../app/chunkReload';
import { LoadingBar } from '../../app/LoadingBar';
import { ErrorPage } from './ErrorPage';
import NotFoundPage from './NotFoundPage';

/**
 * The routes' error element (spec section 8): a chunk load failure reloads the page once;
 * a 404 response shows the not-found page; anything else the error page with its status
 * (default 500) and message.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isChunkLoadError(error) && reloadOnceForChunkError()) return <LoadingBar active />;
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFoundPage />;
    const data = typeof error.data === 'string' ? error.data : undefined;
    return <ErrorPage status={error.status} message={data || error.statusText} />;
  }
  if (error instanceof Error) console.error(error);
  const message = error instanceof Error ? error.message : undefined;
  return <ErrorPage status={500} message={message} />;
}
