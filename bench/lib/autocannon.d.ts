/** The part of autocannon's API the bench uses (the package ships no types). */
declare module "autocannon" {
  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      idReplacement?: boolean;
      verifyBody?: (body: string) => boolean;
      connections?: number;
      duration?: number;
      amount?: number;
      timeout?: number;
    }
    interface Histogram { average: number; p50: number; p99: number; total: number }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      mismatches: number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
