// The build failed over the tight budget, after the generous one passed.
def log = new File(basedir, 'build.log').text
assert log.contains('weft check: OK: 1 properties within limits')
assert log =~ /weft check failed: barrier_wait: \d+\.\d\d % of time is over its budget of 5\.00 % \(worst call path: .*CyclicBarrier.*, at Imbalance\.java:\d+\)/
assert log.contains('-javaagent:')
assert new File(basedir, 'target/weft-check-generous.xml').text.contains('<testcase classname="weft.check" name="barrier_wait"')

// @WeftBudget: the test within its budget passed, the one over it failed naming the property,
// its value, the budget and the call path.
def report = new File(basedir, 'target/surefire-reports/TEST-sample.BarrierTest.xml').text
assert report.contains('tests="3"')
assert report.contains('failures="1"')
assert report =~ /(?s)<testcase name="overItsBudget"[^>]*>\s*<failure message="over budget while overItsBudget\(\) ran: barrier_wait: \d+\.\d\d % of time is over its budget of 5\.00 % \(worst call path: [^"]*CyclicBarrier[^"]*, at Imbalance\.java:\d+\)"/
assert !(report =~ /(?s)<testcase name="withinItsBudget"[^>]*>\s*<failure/)
return true
