import { ErrorScreen } from './error-page.tsx';

export const NotFoundPage = () => <ErrorScreen status={404} />;
