// client-go's util/workqueue on virtual time.
export { WorkQueue, type QueueKey } from './queue';
export { DelayingQueue } from './delayingQueue';
export { RateLimitingQueue } from './rateLimitingQueue';
export { type RateLimiter, ItemExponentialFailureRateLimiter, BucketRateLimiter, ItemFastSlowRateLimiter, MaxOfRateLimiter, defaultControllerRateLimiter } from './rateLimiters';
export { QueueMetrics, Histogram, WORKQUEUE_BUCKETS_SECONDS, type QueueSample } from './metrics';
