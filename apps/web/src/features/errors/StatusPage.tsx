import { useParams } from 'react-router';
import { ErrorPage } from './ErrorPage';
import NotFoundPage from './NotFoundPage';

/** `/{status}`: where the API client goes on an HTTP status of 400 or above (spec section 8). */
export default function StatusPage() {
  const status = Number(useParams().status);
  if (status === 404) return <NotFoundPage />;
  return <ErrorPage status={Number.isInteger(status) && status >= 400 ? status : 500} />;
}
