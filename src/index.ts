export default { fetch: () => new Response("hi") };
