export default function LandingPage() {
  return <main className="p-8 text-2xl font-semibold">Landing</main>;
}
