# cmake -P script: one man page from the command's own --help text (help2man), gzipped as Debian wants.
#   -DHELP2MAN=path -DPROGRAM=path/visiongraph -DSUBCOMMAND=run|"" -DSUMMARY="..." -DVERSION=x.y.z
#   -DSEE_ALSO="visiongraph-run(1), ..." -DOUTPUT=path/visiongraph-run.1.gz
# help2man rather than hand-written roff: the pages cannot drift from what --help prints.
if(SUBCOMMAND)
  set(page_name "visiongraph-${SUBCOMMAND}")
  set(help_option "${SUBCOMMAND} --help")
else()
  set(page_name "visiongraph")
  set(help_option "--help")
endif()
get_filename_component(out_dir "${OUTPUT}" DIRECTORY)
set(include_file "${out_dir}/${page_name}.h2m")
file(WRITE "${include_file}" "[SEE ALSO]\n${SEE_ALSO}\n.PP\nThe documentation is installed in /usr/share/doc/visiongraph/docs (cli.md, yaml.md, service.md).\n")
set(roff "${out_dir}/${page_name}.1")
execute_process(
  COMMAND "${HELP2MAN}" --no-info --no-discard-stderr "--version-string=${VERSION}"
          "--help-option=${help_option}" "--name=${SUMMARY}" "--include=${include_file}"
          --output=${roff} "${PROGRAM}"
  RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "help2man failed for '${page_name}': ${errors}")
endif()
# help2man titles the page after the program; a subcommand's page carries its own name.
file(READ "${roff}" text)
string(TOUPPER "${page_name}" title)
string(REGEX REPLACE "\n\\.TH VISIONGRAPH " "\n.TH ${title} " text "${text}")
string(REGEX REPLACE "\n\\.SH NAME\nvisiongraph \\\\-" "\n.SH NAME\n${page_name} \\\\-" text "${text}")
string(REGEX REPLACE "^\\.\\\\\" DO NOT MODIFY THIS FILE![^\n]*\n" ".\\\\\" Generated from 'visiongraph ${help_option}' by help2man at build time.\n" text "${text}")
file(WRITE "${roff}" "${text}")
execute_process(COMMAND gzip -n -9 -f "${roff}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "gzip failed for ${roff}")
endif()
