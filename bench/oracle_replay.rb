# Times 18xx.games' engine (a local copy, see ../shared/tools/oracle/README.md) loading each game
# file given, in CPU seconds of this process, as bench/our_replay.py times ours: each file loaded
# once before the clock (warm-up), then RUNS timed loads, each after a full garbage collection.
# Run from that copy's directory with `ruby -Ishim`.  Prints one JSON line per file:
# {"file", "median_s", "min_s", "runs"}.
# Uses the engine only as a black box (Engine::Game.load); nothing of it is copied here.
require 'json'
require_relative File.join(Dir.pwd, 'lib', 'engine')

runs = Integer(ENV.fetch('RUNS', '5'))
ARGV.each do |path|
  data = JSON.parse(File.read(path))
  Engine::Game.load(data) # warm-up
  times = Array.new(runs) do
    GC.start
    start = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    Engine::Game.load(data)
    Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - start
  end
  sorted = times.sort
  puts JSON.generate({ 'file' => path, 'median_s' => sorted[runs / 2], 'min_s' => sorted[0],
                       'runs' => times })
  $stdout.flush
end
