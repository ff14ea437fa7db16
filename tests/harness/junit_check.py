# SPDX-License-Identifier: GPL-2.0
"""Check a test_progs --junit file the way its consumers read it.

Usage: junit_check.py JUNIT.xml SUMMARY.json

- junitparser (Debian python3-junitparser) reads it, and its recomputed
  statistics equal the file's own, root and suites (junitparser rewrote a
  root that counted tests instead of test cases);
- the counts of test cases equal those the -J summary implies;
- the constraints of Jenkins xunit's junit-10.xsd hold: which elements and
  attributes may appear where, the required ones, time with at most 3
  decimals.  The schema itself is not shipped by Debian and cannot be
  fetched at test time, so its rules are asserted here; JUNIT_XSD=FILE
  validates against a copy with xmllint as well.

Prints one line per problem; exits 1 if there is any.
"""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

from junitparser import JUnitXml

# junit-10.xsd: attributes allowed (and required) per element.
ALLOWED = {
    "testsuites": {"name", "time", "tests", "failures", "errors"},
    "testsuite": {"name", "tests", "failures", "errors", "group", "time",
                  "skipped", "timestamp", "hostname", "id", "package",
                  "file", "log", "url"},
    "testcase": {"name", "time", "classname", "group"},
    "failure": {"type", "message"},
    "error": {"type", "message"},
    "skipped": {"type", "message"},
    "system-out": set(),
    "system-err": set(),
}
REQUIRED = {
    "testsuite": {"name", "tests", "failures", "errors"},
    "testcase": {"name"},
}
CHILDREN = {
    "testsuites": {"testsuite"},
    "testsuite": {"testsuite", "properties", "testcase", "system-out",
                  "system-err"},
    "testcase": {"skipped", "error", "failure", "system-out", "system-err"},
}
# SUREFIRE_TIME of the stricter releases of the schema (3 decimals at most).
TIME = re.compile(r"(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]{0,3})?")

problems = []


def problem(text):
    problems.append(text)
    if len(problems) <= 12:
        print("junit_check: " + text)
    elif len(problems) == 13:
        print("junit_check: (more problems not shown)")


def check_schema(elem, path):
    tag = elem.tag
    where = "%s/%s" % (path, tag)
    if tag not in ALLOWED:
        problem("%s: element not in junit-10.xsd" % where)
        return
    extra = set(elem.attrib) - ALLOWED[tag]
    if extra:
        problem("%s: attributes not in junit-10.xsd: %s" % (where, sorted(extra)))
    missing = REQUIRED.get(tag, set()) - set(elem.attrib)
    if missing:
        problem("%s: required attributes missing: %s" % (where, sorted(missing)))
    if "time" in elem.attrib and not TIME.fullmatch(elem.attrib["time"]):
        problem("%s: time '%s' is not SUREFIRE_TIME" % (where, elem.attrib["time"]))
    for child in elem:
        if child.tag not in CHILDREN.get(tag, set()):
            problem("%s: <%s> not allowed in <%s>" % (where, child.tag, tag))
        check_schema(child, where)


def counts_of(xml_obj):
    return (int(xml_obj.tests), int(xml_obj.failures), int(xml_obj.errors))


def check_junitparser(path):
    """The file's statistics equal what junitparser recomputes."""
    xml = JUnitXml.fromfile(path)
    before = counts_of(xml)
    suites = [(s.name, counts_of(s), int(s.skipped)) for s in xml]
    for suite in xml:
        suite.update_statistics()
    for (name, counts, skipped), suite in zip(suites, xml):
        if counts != counts_of(suite) or skipped != int(suite.skipped):
            problem("suite %s: file says %s skipped %d, junitparser counts %s "
                    "skipped %d" % (name, counts, skipped, counts_of(suite),
                                    int(suite.skipped)))
    xml.update_statistics()
    if before != counts_of(xml):
        problem("root: file says tests/failures/errors %s, junitparser counts %s"
                % (before, counts_of(xml)))
    skipped = sum(int(s.skipped) for s in xml)
    return counts_of(xml) + (skipped,)


def expected_from_json(path):
    """Test cases: the subtests, plus the test itself when it has none or
    failed outside them."""
    with open(path) as f:
        summary = json.load(f)
    tests = failures = skipped = 0
    for r in summary["results"]:
        cases = [(s["failed"], s["outcome"] == "SKIP") for s in r["subtests"]]
        if not cases or (r["failed"] and not any(c[0] for c in cases)):
            cases.append((r["failed"], r["outcome"] == "SKIP"))
        tests += len(cases)
        failures += sum(1 for c in cases if c[0])
        skipped += sum(1 for c in cases if c[1])
    return (tests, failures, 0, skipped)


def main():
    if len(sys.argv) != 3:
        print("usage: junit_check.py JUNIT.xml SUMMARY.json", file=sys.stderr)
        return 2
    junit, summary = sys.argv[1:]
    root = ET.parse(junit).getroot()
    if root.tag != "testsuites":
        problem("root is <%s>, expected <testsuites>" % root.tag)
    check_schema(root, "")
    got = check_junitparser(junit)
    want = expected_from_json(summary)
    if got != want:
        problem("tests/failures/errors/skipped: JUnit %s, the JSON summary "
                "implies %s" % (got, want))
    xsd = os.environ.get("JUNIT_XSD")
    if xsd:
        res = subprocess.run(["xmllint", "--noout", "--schema", xsd, junit],
                             capture_output=True, text=True)
        if res.returncode:
            problem("xmllint --schema %s: %s" % (xsd, res.stderr.strip()))
    if not problems:
        print("junit_check: %s: %d cases, %d failures, %d errors, %d skipped; "
              "junit-10.xsd rules hold" % ((junit,) + got))
    if problems:
        print("junit_check: %d problems" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
